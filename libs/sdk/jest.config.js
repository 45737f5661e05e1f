export default { displayName: '@workcell/sdk', preset: '../../jest.preset.js' };
